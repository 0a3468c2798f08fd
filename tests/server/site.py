"""A site of several real worker processes on one PostgreSQL database and one Redis, for the tests and the
server benchmark: workers started separately (one port each) or by `guandan serve --workers N`, and a
player client that reconnects to whichever address answers and resumes where it was."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
import redis
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

from guandan.server.bench import client_actions

SERVE = [sys.executable, "-c", "from guandan.cli import main; main()", "serve", "--no-rate-limits", "--bot-delay-ms", "0",
         "--max-rooms", "100000", "--max-rooms-per-address", "100000"]


def fresh_database(postgres_url: str) -> str:
    """A new empty database on the test server, for one site."""
    import psycopg

    name = f"site_{secrets.token_hex(4)}"
    libpq = postgres_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(libpq, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return postgres_url.rsplit("/", 1)[0] + "/" + name


@dataclass
class Site:
    """Worker processes of one site: ``ports[i]`` is worker i's address (one port for a supervisor)."""

    db: str
    redis_url: str
    name: str = field(default_factory=lambda: f"t{secrets.token_hex(3)}")
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)
    ports: list[int] = field(default_factory=list)
    log_dir: str | None = None  # each worker's standard error goes to a file there

    def start_worker(self, port: int, *extra: str) -> subprocess.Popen[bytes]:
        cmd = [*SERVE, "--port", str(port), "--db", self.db, "--redis", self.redis_url, "--site", self.name, *extra]
        if self.log_dir:
            with open(f"{self.log_dir}/worker-{port}-{len(self.procs)}.log", "wb") as log:
                proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log, env={**os.environ})
        else:
            proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ})
        self.procs.append(proc)
        self.ports.append(port)
        return proc

    def wait_ready(self, port: int, workers: int, timeout: float = 90) -> None:
        """The address answers and ``workers`` workers have joined the site."""
        client = redis.Redis.from_url(self.redis_url)
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                try:
                    httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=1).raise_for_status()
                    if self.workers(client) >= workers:
                        return
                except httpx.HTTPError:
                    pass
                time.sleep(0.1)
        finally:
            client.close()
        raise RuntimeError(f"the site did not come up on port {port} with {workers} workers")

    def workers(self, client: redis.Redis | None = None) -> int:
        """Workers joined and alive."""
        c = client or redis.Redis.from_url(self.redis_url)
        try:
            ids = [w.decode() for w in c.smembers(f"{self.name}:workers")]  # type: ignore[union-attr]
            return sum(1 for w in ids if c.exists(f"{self.name}:worker:{w}"))
        finally:
            if client is None:
                c.close()

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


class Player:
    """A page at the table: it acts on its turn (the first action bench.client_actions offers), and when its socket drops it
    reconnects, to the next address of ``ports`` that answers, and resumes from the last update it saw."""

    def __init__(self, ports: Sequence[int], code: str, token: str | None, seat: int | None) -> None:
        self.ports, self.code, self.token, self.seat = list(ports), code, token, seat
        self.at = 0  # index into ports
        self.ws: ClientConnection | None = None
        self.seq = -1  # the last update applied (snapshot or update)
        # every seq this page has applied, in order: one at a time from updates, or several at once from a
        # snapshot after a reconnect (the table as it is, with everything since the last update in it)
        self.seen: list[int] = []
        self.reconnects = 0
        self.outage_s = 0.0  # the longest time between a dropped socket and the next snapshot
        self.over = False
        self.current: dict[str, Any] | None = None  # the last frame with a view of the table
        self.trace: deque[str] = deque(maxlen=30)  # the last things this page did, for a failing test's message

    def open(self) -> None:
        suffix = f"?token={self.token}" if self.token else ""
        dropped = time.monotonic()
        while True:
            port = self.ports[self.at % len(self.ports)]
            try:
                # legacy=True: this page holds its socket across calls and closes it itself (close()), so
                # it asks for the connection directly rather than a context manager's
                self.ws = connect(f"ws://127.0.0.1:{port}/ws/{self.code}{suffix}", open_timeout=5, legacy=True)
                self.trace.append(f"{time.monotonic():.2f} connected to {port}")
                if self.seq >= 0:
                    self.ws.send(json.dumps({"type": "resume", "since": self.seq}))
                return
            except (OSError, InvalidHandshake, TimeoutError):
                self.at += 1
                time.sleep(0.1)
                if time.monotonic() - dropped > 60:
                    raise

    def frames(self) -> Any:
        """Frames until the match is over, reconnecting as a page does."""
        dropped: float | None = None
        while not self.over:
            if self.ws is None:
                self.open()
            assert self.ws is not None
            try:
                f = json.loads(self.ws.recv(timeout=60))  # nothing for a minute: TimeoutError, the test fails
            except TimeoutError:
                raise
            except (ConnectionClosed, OSError) as e:
                self.trace.append(f"{time.monotonic():.2f} dropped: {e!r}")
                self.ws = None
                self.reconnects += 1
                self.at += 1
                dropped = dropped or time.monotonic()
                continue
            if f["type"] == "snapshot":
                if dropped is not None:
                    self.outage_s = max(self.outage_s, time.monotonic() - dropped)
                    dropped = None
                if f["seq"] < self.seq:
                    raise AssertionError(f"a snapshot at {f['seq']} went back from {self.seq}")
                self.seen.extend(range(max(self.seq, 0) + 1, f["seq"] + 1))
                self.seq = f["seq"]
                self.over = f["room"]["status"] == "over"  # it ended while this page was away
            elif f["type"] == "update":
                if f["seq"] <= self.seq:
                    continue  # the catch-up after a resume may repeat what the snapshot had
                if f["seq"] != self.seq + 1:
                    raise AssertionError(f"update {f['seq']} after {self.seq}: one is missing")
                self.seq = f["seq"]
                self.seen.append(f["seq"])
            elif f["type"] == "room" and f["room"]["status"] == "over":
                self.over = True
            detail = f.get("seq", "") if f["type"] != "error" else f"{f.get('code')}: {f.get('message')}"
            view = f.get("view")
            if isinstance(view, dict):  # whose turn it was: a stalled table names the seat it waited for
                detail = f"{detail} to_move={view.get('to_move')} legal={len(view.get('legal') or [])}"
            if f["type"] == "room":
                detail = f"{f['room'].get('status')} paused={f['room'].get('paused')}"
            self.trace.append(f"{time.monotonic():.2f} {f['type']} {detail}")
            yield f

    def respond(self, f: dict[str, Any]) -> None:
        """What a player does with a frame: taps 继续 at a deal's end, and acts on its turn (also when the
        pause between deals ends, which a frame without a view tells)."""
        if f.get("view"):
            self.current = f
        interval = f.get("interval") if f["type"] != "interval" else f
        if interval and not interval.get("done") and self.seat in interval.get("waiting", ()):
            self.send({"type": "continue"})
        elif f["type"] == "interval" and f.get("done") and self.current is not None:
            f = self.current
        if self.my_turn(f):
            self.act(f)

    def send(self, frame: dict[str, Any]) -> None:
        assert self.ws is not None
        # a closed socket reconnects on the next receive, and acts again from the snapshot if the act was lost
        with contextlib.suppress(ConnectionClosed):
            self.ws.send(json.dumps(frame))

    def my_turn(self, f: dict[str, Any]) -> bool:
        v = f.get("view")
        return (self.seat is not None and f["type"] in ("update", "snapshot") and bool(v) and v["to_move"] == self.seat
                and bool(client_actions(v)) and f["seq"] == self.seq)

    def act(self, f: dict[str, Any]) -> None:
        a = client_actions(f["view"])[0]
        self.trace.append(f"{time.monotonic():.2f} act {a['kind']} at {f['seq']}")
        self.send({"type": "act", "kind": a["kind"], "cards": a["cards"], "combo": a.get("combo"), "seq": f["seq"]})

    def __repr__(self) -> str:
        return f"Player(seat={self.seat}, seq={self.seq}, over={self.over}, trace={list(self.trace)})"

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
